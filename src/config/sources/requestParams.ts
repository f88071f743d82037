import { z } from 'zod';
import { describeValue } from '../loading/treeShape.js';

/** A request parameter's value as written in the config. */
export const paramValue = z
  .union([z.string(), z.number(), z.boolean()], { error: (issue) => `must be a string, number or boolean (a request parameter's value), not ${describeValue(issue.input)}` })
  .refine((value) => typeof value !== 'string' || !value.includes('\0'), 'must not contain a NUL character: no request can carry it');

/** Request parameters as sent: numbers and booleans as their text. */
export const requestParams = z.record(z.string(), paramValue).transform((params) => Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])));

import type { Simulator } from '../../src/simulator/startSimulator.js';

/** The envelope every simulator body has. */
export interface Envelope<Data = Record<string, unknown>> {
  status: 'success' | 'error';
  data: Data;
  message: string;
}

/** A transaction as the explorer serves it (txlist items, gettx). */
export interface ServedTx {
  hash: string;
  blockNumber: number;
  transactionIndex: number;
  from: string;
  to: string;
  value: string;
  gas: number;
  gasPrice: string;
  input: string;
  status: string;
  timeStamp: number;
}

export interface JsonResponse<Data> {
  status: number;
  headers: Headers;
  text: string;
  body: Envelope<Data>;
}

/** GET with the simulator's key (or `key`, or none when null), body parsed as an envelope. */
export async function getJson<Data = Record<string, unknown>>(url: string, key: string | null, init: RequestInit = {}): Promise<JsonResponse<Data>> {
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  const response = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as Envelope<Data> };
}

export function musicUrl(simulator: Simulator, params: Record<string, string | number>): string {
  return `${simulator.musicBaseUrl}/2.0/?${new URLSearchParams(stringValues(params)).toString()}`;
}

/** The explorer's URL for `params`: the contract's `/api`, or Etherscan's V2 path on chain 1 unless `params` names another. */
export function explorerUrl(simulator: Simulator, params: Record<string, string | number>): string {
  if (simulator.dialect === 'etherscan') return `${simulator.explorerBaseUrl}/v2/api?${new URLSearchParams(stringValues({ chainid: 1, ...params })).toString()}`;
  return `${simulator.explorerBaseUrl}/api?${new URLSearchParams(stringValues(params)).toString()}`;
}

function stringValues(params: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));
}

export interface BodyResponse<Body> {
  status: number;
  headers: Headers;
  text: string;
  body: Body;
}

/** GET with only the given headers (no key unless the caller puts one there), body parsed as JSON of any shape. */
export async function getBody<Body = Record<string, unknown>>(url: string, headers: Record<string, string> = {}): Promise<BodyResponse<Body>> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as Body };
}

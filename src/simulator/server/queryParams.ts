/** A query parameter that cannot be used, as a value the endpoint turns into a 400. */
export interface InvalidParam {
  kind: 'invalid_param';
  param: string;
  message: string;
}

export type ParamResult<T> = { ok: true; value: T } | { ok: false; error: InvalidParam };

const DIGITS = /^\d+$/;

/** An integer parameter in [min, max]; absent or empty gives the fallback. */
export function integerParam(
  params: URLSearchParams,
  name: string,
  range: { min: number; max?: number; fallback: number },
): ParamResult<number> {
  const raw = params.get(name);
  if (raw === null || raw === '') return { ok: true, value: range.fallback };
  const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || value < range.min || value > max) {
    const bounds = range.max === undefined ? `an integer >= ${range.min}` : `an integer from ${range.min} to ${range.max}`;
    return { ok: false, error: { kind: 'invalid_param', param: name, message: `${name} must be ${bounds}, got "${raw}"` } };
  }
  return { ok: true, value };
}

/** A required non-empty text parameter. */
export function requiredParam(params: URLSearchParams, name: string): ParamResult<string> {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') {
    return { ok: false, error: { kind: 'invalid_param', param: name, message: `${name} is required` } };
  }
  return { ok: true, value: raw.trim() };
}

/** One of a fixed set of values, compared case-insensitively; absent gives the first. */
export function choiceParam<T extends string>(params: URLSearchParams, name: string, choices: readonly [T, ...T[]]): ParamResult<T> {
  const raw = params.get(name);
  if (raw === null || raw === '') return { ok: true, value: choices[0] };
  const value = choices.find((choice) => choice === raw.toLowerCase());
  if (value === undefined) {
    return { ok: false, error: { kind: 'invalid_param', param: name, message: `${name} must be one of ${choices.join(', ')}, got "${raw}"` } };
  }
  return { ok: true, value };
}

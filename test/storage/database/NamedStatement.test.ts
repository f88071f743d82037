import { describe, expect, it } from 'vitest';
import { NamedStatement } from '../../../src/storage/database/NamedStatement.js';

describe('NamedStatement', () => {
  it('numbers parameters in order of first use and sends their values in that order', () => {
    const statement = new NamedStatement<{ b: number; a: string }>('s', 'select :a::text, :b::int');
    expect(statement.text).toBe('select $1::text, $2::int');
    expect(statement.with({ b: 2, a: 'x' })).toEqual({ name: 's', text: 'select $1::text, $2::int', values: ['x', 2] });
  });

  it('gives a parameter used twice one placeholder', () => {
    const statement = new NamedStatement<{ id: string }>('s', 'select :id::uuid where :id::uuid is not null');
    expect(statement.text).toBe('select $1::uuid where $1::uuid is not null');
    expect(statement.with({ id: 'u' }).values).toEqual(['u']);
  });

  it('leaves casts and array casts alone', () => {
    const statement = new NamedStatement<{ keys: string[] }>('s', "select unnest(:keys::text[]), now()::date, '{}'::jsonb");
    expect(statement.text).toBe("select unnest($1::text[]), now()::date, '{}'::jsonb");
  });

  it('sends arrays as they are, for pg to write as array literals', () => {
    const statement = new NamedStatement<{ keys: string[]; ids: number[] }>('s', 'select :keys::text[], :ids::int[]');
    expect(statement.with({ keys: ['a'], ids: [1] }).values).toEqual([['a'], [1]]);
  });

  it('sends a parameter given as undefined as null', () => {
    const statement = new NamedStatement<{ a: string | undefined }>('s', 'select :a::text');
    expect(statement.with({ a: undefined }).values).toEqual([null]);
  });

  it('refuses values without a parameter the SQL names, naming it', () => {
    const statement = new NamedStatement<{ a: string }>('s', 'select :a::text, :b::text');
    expect(() => statement.with({ a: 'x' })).toThrow('statement s needs :b, which was not given');
  });
});

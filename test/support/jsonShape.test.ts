import { describe, expect, it } from 'vitest';
import { describeDifferences, shapeDifferences, shapeOf } from './jsonShape.js';

const places = (value: unknown) => Object.fromEntries([...shapeOf(value)].map(([place, types]) => [place, [...types].sort()]));
const differences = (real: unknown, found: unknown, allowed?: string[]) => shapeDifferences(shapeOf(real), shapeOf(found), allowed);

describe('shapeOf', () => {
  it('names every place by its field names from the top, with the JSON type found there', () => {
    expect(places({ a: { b: 'x', c: 1, d: true, e: null } })).toEqual({ '': ['object'], a: ['object'], 'a.b': ['string'], 'a.c': ['number'], 'a.d': ['boolean'], 'a.e': ['null'] });
  });

  it("puts a list's items at one place, [], with the fields of all its items together", () => {
    expect(places({ track: [{ name: 'a', '@attr': { nowplaying: 'true' } }, { name: 'b', date: { uts: '1' } }] })).toEqual({
      '': ['object'],
      track: ['array'],
      'track[]': ['object'],
      'track[].name': ['string'],
      'track[].@attr': ['object'],
      'track[].@attr.nowplaying': ['string'],
      'track[].date': ['object'],
      'track[].date.uts': ['string'],
    });
  });

  it('keeps every type a place has', () => {
    expect(places([{ mbid: 'x' }, { mbid: null }])['[].mbid']).toEqual(['null', 'string']);
  });
});

describe('shapeDifferences', () => {
  it('finds nothing between bodies of one shape, whatever their values', () => {
    expect(differences({ a: [{ b: '1' }] }, { a: [{ b: '2' }, { b: '3' }] })).toEqual([]);
  });

  it('finds a field the real body has and the other lacks', () => {
    expect(differences({ artist: { name: 'a', streamable: '0' } }, { artist: { name: 'a' } })).toEqual([{ place: 'artist.streamable', real: ['string'], found: [] }]);
  });

  it('finds a field of another type than the real one: a number where the real body sends text', () => {
    expect(differences({ listeners: '12' }, { listeners: 12 })).toEqual([{ place: 'listeners', real: ['string'], found: ['number'] }]);
  });

  it('finds an object where the real body sends a list, and lists nothing under it again', () => {
    expect(differences({ tags: { tag: [{ name: 'rock' }] } }, { tags: ['rock'] })).toEqual([{ place: 'tags', real: ['object'], found: ['array'] }]);
  });

  it('finds a field only some real items have when no item of the other has it', () => {
    expect(differences({ track: [{ name: 'a' }, { name: 'b', date: {} }] }, { track: [{ name: 'c' }] })).toEqual([{ place: 'track[].date', real: ['object'], found: [] }]);
  });

  it('takes fields only the other body has, and a type the real body has at a place among others', () => {
    expect(differences({ mbid: 'x', list: [{ mbid: 'y' }, { mbid: null }] }, { mbid: 'x', id: 'extra', list: [{ mbid: null }] })).toEqual([]);
  });

  it('skips allowed places and everything under them', () => {
    expect(differences({ a: { old: { deep: '1' }, kept: '1' }, b: [{ old: '1' }] }, { a: { kept: 1 }, b: [{}] }, ['a.old', 'b[].old'])).toEqual([{ place: 'a.kept', real: ['string'], found: ['number'] }]);
  });
});

describe('describeDifferences', () => {
  it('says, a line a difference, what the real body has there and what was found', () => {
    expect(describeDifferences(differences({ a: '1', b: '2' }, { a: 1 }))).toEqual(['a: real string, found number', 'b: real string, found nothing']);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGUE_SIZE, MusicCatalogue } from '../../../src/simulator/music/MusicCatalogue.js';
import { UserHistories } from '../../../src/simulator/music/UserHistories.js';

describe('MusicCatalogue', () => {
  it('counts 10,000 artists, 20,000 albums and 100,000 tracks at the default size', () => {
    const catalogue = new MusicCatalogue(1, DEFAULT_CATALOGUE_SIZE);
    expect(catalogue.counts).toMatchObject({ artists: 10_000, albums: 20_000, tracks: 100_000 });
  });

  it('gives every default artist a distinct name', () => {
    const catalogue = new MusicCatalogue(3, DEFAULT_CATALOGUE_SIZE);
    const names = new Set(Array.from({ length: catalogue.counts.artists }, (_, a) => catalogue.artist(a).name));
    expect(names.size).toBe(catalogue.counts.artists);
  });

  it('finds a record by its name and by its id', () => {
    const catalogue = new MusicCatalogue(3, DEFAULT_CATALOGUE_SIZE);
    const track = catalogue.track(54_321);
    expect(catalogue.findTrack(track.name.toUpperCase())).toBe(54_321);
    expect(catalogue.findTrack(track.id)).toBe(54_321);
    expect(catalogue.findUser(catalogue.userName(77))).toBe(77);
  });

  it('makes a track belong to its album and the album to its artist', () => {
    const catalogue = new MusicCatalogue(3, DEFAULT_CATALOGUE_SIZE);
    const track = catalogue.track(12_345);
    const album = catalogue.album(Number(track.albumId.slice(3)));
    expect(album.name).toBe(track.album);
    expect(album.artistId).toBe(track.artistId);
    expect(catalogue.artist(Number(track.artistId.slice(3))).name).toBe(track.artist);
  });
});

describe('UserHistories', () => {
  const catalogue = new MusicCatalogue(5, { ...DEFAULT_CATALOGUE_SIZE, playsPerUser: 400 });
  const histories = new UserHistories(5, catalogue);

  it('spaces each user’s plays in strictly increasing time', () => {
    const count = histories.playCount(9);
    const times = Array.from({ length: count }, (_, p) => histories.playUts(9, p));
    expect(times.every((uts, p) => p === 0 || uts > times[p - 1]!)).toBe(true);
  });

  it('maps a time window to exactly the plays inside it', () => {
    const count = histories.playCount(4);
    const from = histories.playUts(4, 100) - 1;
    const to = histories.playUts(4, 150);
    const inside = Array.from({ length: count }, (_, p) => p).filter((p) => histories.playUts(4, p) >= from && histories.playUts(4, p) <= to);
    const { first, end } = histories.playsBetween(4, from, to);
    expect(Array.from({ length: end - first }, (_, n) => first + n)).toEqual(inside);
  });
});

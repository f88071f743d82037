import { afterAll, beforeAll } from 'vitest';
import { openRunStore, type RunStore } from '../../src/storage/RunStore.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

/** A test file's own database and a run store on it, both set once its beforeAll has run. */
export interface GivenRunStore {
  database: TestDatabase;
  store: RunStore;
}

/** The storage tests' one set-up: a database of the calling file's own with a run store, made before its tests and dropped after them. */
export function givenRunStore(): GivenRunStore {
  const given = {} as GivenRunStore;
  beforeAll(async () => {
    given.database = await createTestDatabase();
    given.store = openRunStore(given.database.db);
  });
  afterAll(() => given.database.drop());
  return given;
}

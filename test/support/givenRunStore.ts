import { afterAll, beforeAll } from 'vitest';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

/** A test file's own database and a run store on it, both set once its beforeAll has run. */
export interface GivenRunStore {
  database: TestDatabase;
  store: RunStore;
}

/** For a test file needing a run store: a database of the file's own with a run store on it, made before its tests and dropped after them. */
export function givenRunStore(): GivenRunStore {
  const given = {} as GivenRunStore;
  beforeAll(async () => {
    given.database = await createTestDatabase();
    given.store = openRunStore(given.database.db);
  });
  // Optional: a beforeAll that failed left nothing to drop, and its error is the one to see.
  afterAll(() => given.database?.drop());
  return given;
}

import { writeGeneratedDocs } from './generatedDocs.js';

// `npm run docs:write`: the JSON Schema and the pages made from the code, written anew.
await writeGeneratedDocs();

// Runs in every test file: schemas a file created on the PostgreSQL server are dropped after it.
import { afterAll } from 'vitest';
import { dropSchemas } from '../../testing/databases';

afterAll(() => dropSchemas());

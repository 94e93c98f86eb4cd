import { describe, expect, it } from 'vitest';
import { describeConnection, parseConnectionString } from './connection-string.ts';

describe('parseConnectionString', () => {
  it.each([
    ['postgres://u:p%40ss@db.example:6543/app', { host: 'db.example', port: 6543, database: 'app', user: 'u', password: 'p@ss' }],
    ['postgresql://postgres@127.0.0.1/test', { host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres', password: undefined }],
    ['Host=h;Port=5433;Database=db;Username=u;Password=p;Pooling=true', { host: 'h', port: 5433, database: 'db', user: 'u', password: 'p' }],
    ['host=h; database=db; user id=u; pwd=secret=with=equals', { host: 'h', port: 5432, database: 'db', user: 'u', password: 'secret=with=equals' }],
    ['Server=h;Initial Catalog=db;User ID=u', { host: 'h', port: 5432, database: 'db', user: 'u', password: undefined }],
  ])('%s', (input, expected) => {
    expect(parseConnectionString(input)).toMatchObject(expected);
  });

  it('maps SSL Mode', () => {
    expect(parseConnectionString('Host=h;SSL Mode=Require').ssl).toEqual({ rejectUnauthorized: false });
    expect(parseConnectionString('postgres://h/db?sslmode=verify-full').ssl).toBe(true);
    expect(parseConnectionString('Host=h').ssl).toBeUndefined();
  });

  it('rejects malformed input without echoing it', () => {
    for (const input of ['Host=h;Port=abc;Password=hunter22', 'Database=db;Password=hunter22', 'justtext-hunter22']) {
      let message = '';
      try {
        parseConnectionString(input);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/ConnectionStrings__DefaultConnection/);
      expect(message).not.toContain('hunter22');
    }
  });

  it('describes a connection without its password', () => {
    expect(describeConnection(parseConnectionString('Host=h;Database=d;Username=u;Password=hunter22'))).toBe('postgres://u@h:5432/d');
  });
});

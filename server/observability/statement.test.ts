// What a trace says of a statement: its kind and table or function, read from the text, and nothing
// of its values even when a literal sits in it.
import { describe, it, expect } from 'vitest';
import { statementSummary } from './statement';

describe('statement summary', () => {
  it('names the kind and the table drizzle wrote', () => {
    expect(statementSummary('select "id", "name" from "gachas" where "gachas"."id" = $1')).toEqual({
      operation: 'SELECT',
      target: 'gachas',
    });
    expect(statementSummary('insert into "outbound_messages" ("id") values ($1)')).toEqual({
      operation: 'INSERT',
      target: 'outbound_messages',
    });
    expect(statementSummary('update "payment_orders" set "status" = $1')).toEqual({
      operation: 'UPDATE',
      target: 'payment_orders',
    });
    expect(statementSummary('delete from "sessions" where "token" = $1')).toEqual({
      operation: 'DELETE',
      target: 'sessions',
    });
  });

  it('names the function a statement calls, but not a wrapper around a value', () => {
    expect(statementSummary('select draw_lots($1, $2, $3) as r')).toEqual({ operation: 'SELECT', target: 'draw_lots' });
    expect(statementSummary('select count(*)::int as n from wallets')).toEqual({
      operation: 'SELECT',
      target: 'wallets',
    });
    expect(statementSummary('select 1')).toEqual({ operation: 'SELECT' });
  });

  it('keeps nothing but the kind of a statement it cannot read, and never a value', () => {
    expect(statementSummary('begin')).toEqual({ operation: 'BEGIN' });
    expect(statementSummary('  commit')).toEqual({ operation: 'COMMIT' });
    expect(statementSummary("with x as (select 'taro@example.jp') select * from x")).toEqual({ operation: 'WITH' });
    expect(statementSummary('-- a comment first')).toEqual({ operation: 'SQL' });
    const summary = statementSummary("select * from members where email = 'taro@example.jp'");
    expect(JSON.stringify(summary)).not.toContain('taro');
  });
});

import { describe, expect, it } from 'vitest';
import { InputRounds, MAX_ROUNDS_PER_TOKEN, type InputRequired } from '../../src/callers/input-rounds.js';

const isRound = (value: unknown): value is InputRequired => (value as InputRequired)?.resultType === 'input_required';

describe('input rounds (a 2025 upstream asking a 2026-07-28 client)', () => {
  it('answers with input_required while the upstream waits, then finishes on the retry', async () => {
    const rounds = new InputRounds<string>();
    const first = await rounds.begin('token-a', 'tools/call t', async (asker) => {
      const answer = await asker.ask('elicitation/create', { message: 'who?' });
      const again = await asker.ask('sampling/createMessage', { messages: [] });
      return `${JSON.stringify(answer)} ${JSON.stringify(again)}`;
    });
    if (!isRound(first)) throw new Error('expected an input round');
    expect(Object.values(first.inputRequests)).toEqual([{ method: 'elicitation/create', params: { message: 'who?' } }]);
    const [key] = Object.keys(first.inputRequests);
    const second = await rounds.resume('token-a', 'tools/call t', first.requestState, { [key ?? '']: { action: 'accept', content: { name: 'grace' } } });
    if (!isRound(second)) throw new Error('expected a second round');
    // Every round has a new state: the first one cannot be replayed.
    expect(second.requestState).not.toBe(first.requestState);
    await expect(rounds.resume('token-a', 'tools/call t', first.requestState, {})).rejects.toThrow('Invalid or expired requestState');
    const [key2] = Object.keys(second.inputRequests);
    const done = await rounds.resume('token-a', 'tools/call t', second.requestState, { [key2 ?? '']: { role: 'assistant', content: { type: 'text', text: 'hi' } } });
    expect(done).toBe('{"action":"accept","content":{"name":"grace"}} {"role":"assistant","content":{"type":"text","text":"hi"}}');
    expect(rounds.size).toBe(0);
  });

  it('returns the result directly when the upstream asks nothing', async () => {
    const rounds = new InputRounds<number>();
    expect(await rounds.begin(undefined, 'tools/call t', async () => 42)).toBe(42);
    expect(rounds.size).toBe(0);
  });

  it('refuses a state from another authorization, and a retry without the answer fails that ask', async () => {
    const rounds = new InputRounds<string>();
    const first = await rounds.begin('token-a', 'tools/call t', async (asker) => {
      try {
        await asker.ask('roots/list', undefined);
        return 'answered';
      } catch (error) {
        return `failed: ${(error as Error).message}`;
      }
    });
    if (!isRound(first)) throw new Error('expected an input round');
    await expect(rounds.resume('token-b', 'tools/call t', first.requestState, {})).rejects.toThrow('Invalid or expired requestState');
    expect(await rounds.resume('token-a', 'tools/call t', first.requestState, {})).toMatch(/^failed: the client gave no answer for input-1 \(roots\/list\)$/);
  });
});

describe('input rounds: bound to their request, and shared fairly between tokens', () => {
  it('refuses a retry naming another tool instead of handing it the original result', async () => {
    const rounds = new InputRounds<string>();
    const first = await rounds.begin('token-a', 'tools/call delete_all', async (asker) => {
      await asker.ask('elicitation/create', { message: 'sure?' });
      return 'delete_all done';
    });
    if (!isRound(first)) throw new Error('expected an input round');
    await expect(rounds.resume('token-a', 'tools/call read_note', first.requestState, {})).rejects.toThrow(/continues tools\/call delete_all, not tools\/call read_note/);
    // The round stays open for its own retry.
    expect(await rounds.resume('token-a', 'tools/call delete_all', first.requestState, { 'input-1': { action: 'accept' } })).toBe('delete_all done');
  });

  it('one token cannot fill the table: past its share its rounds fail, another token still gets one', async () => {
    const rounds = new InputRounds<string>();
    const ask = (token: string) =>
      rounds.begin(token, 'tools/call t', async (asker) => {
        try {
          await asker.ask('elicitation/create', { message: 'x' });
          return 'answered';
        } catch (error) {
          return `failed: ${(error as Error).message}`;
        }
      });
    for (let i = 0; i < MAX_ROUNDS_PER_TOKEN; i++) expect(isRound(await ask('greedy'))).toBe(true);
    expect(await ask('greedy')).toMatch(/too many input rounds .* for this token \(at most 100\)/);
    expect(isRound(await ask('other'))).toBe(true);
    expect(rounds.size).toBe(MAX_ROUNDS_PER_TOKEN + 1);
  });
});

import { describe, expect, it } from 'vitest';
import { InputRounds, type InputRequired } from '../../src/front/input-rounds.js';

const isRound = (value: unknown): value is InputRequired => (value as InputRequired)?.resultType === 'input_required';

describe('input rounds (a 2025 upstream asking a 2026-07-28 client)', () => {
  it('answers with input_required while the upstream waits, then finishes on the retry', async () => {
    const rounds = new InputRounds<string>();
    const first = await rounds.begin('token-a', async (asker) => {
      const answer = await asker.ask('elicitation/create', { message: 'who?' });
      const again = await asker.ask('sampling/createMessage', { messages: [] });
      return `${JSON.stringify(answer)} ${JSON.stringify(again)}`;
    });
    if (!isRound(first)) throw new Error('expected an input round');
    expect(Object.values(first.inputRequests)).toEqual([{ method: 'elicitation/create', params: { message: 'who?' } }]);
    const [key] = Object.keys(first.inputRequests);
    const second = await rounds.resume('token-a', first.requestState, { [key ?? '']: { action: 'accept', content: { name: 'grace' } } });
    if (!isRound(second)) throw new Error('expected a second round');
    // Every round has a new state: the first one cannot be replayed.
    expect(second.requestState).not.toBe(first.requestState);
    await expect(rounds.resume('token-a', first.requestState, {})).rejects.toThrow('Invalid or expired requestState');
    const [key2] = Object.keys(second.inputRequests);
    const done = await rounds.resume('token-a', second.requestState, { [key2 ?? '']: { role: 'assistant', content: { type: 'text', text: 'hi' } } });
    expect(done).toBe('{"action":"accept","content":{"name":"grace"}} {"role":"assistant","content":{"type":"text","text":"hi"}}');
    expect(rounds.size).toBe(0);
  });

  it('returns the result directly when the upstream asks nothing', async () => {
    const rounds = new InputRounds<number>();
    expect(await rounds.begin(undefined, async () => 42)).toBe(42);
    expect(rounds.size).toBe(0);
  });

  it('refuses a state from another authorization, and a retry without the answer fails that ask', async () => {
    const rounds = new InputRounds<string>();
    const first = await rounds.begin('token-a', async (asker) => {
      try {
        await asker.ask('roots/list', undefined);
        return 'answered';
      } catch (error) {
        return `failed: ${(error as Error).message}`;
      }
    });
    if (!isRound(first)) throw new Error('expected an input round');
    await expect(rounds.resume('token-b', first.requestState, {})).rejects.toThrow('Invalid or expired requestState');
    expect(await rounds.resume('token-a', first.requestState, {})).toMatch(/^failed: the client gave no answer for input-1 \(roots\/list\)$/);
  });
});

import { describe, expect, it } from 'vitest';
import type { ResolvedMode } from '../../src/config/resolve.js';
import { resolveIntent } from '../../src/search/intent.js';
import { NEIGHBOUR_FLOOR, taskNeighbours } from '../../src/search/intent-tasks.js';
import { expandQuery } from '../../src/search/text.js';

/** Intent from a mode's typical tasks, on made-up modes whose names and descriptions share no word with the phrases. */

const mode = (name: string, description: string, tasks: string[]): ResolvedMode => ({ name, aliases: [], description, tasks, groups: [], readOnly: false, budget: undefined, maxBudget: undefined, fit: true, fill: false, pin: [], lean: undefined });
const MODES = [
  mode('kitchen', 'Meals at home', ['find a recipe for dinner with chicken and rice', 'what is in the fridge', 'plan the meals of the week']),
  mode('garden', 'The yard', ['when to plant tomatoes', 'water the lawn on a schedule', 'find a spot with shade for the herbs']),
  mode('ledger', 'Money', ['what did we spend on groceries last month', 'record the electricity bill', 'find the receipt for the fridge']),
];
const near = (phrase: string, modes = MODES) => taskNeighbours(modes, expandQuery(phrase));

describe('typical tasks as intent evidence', () => {
  it('picks the mode whose typical task the phrase is close to, though no word of its name or description is in it', () => {
    expect(resolveIntent('a chicken recipe for tonight', MODES).mode).toBe('kitchen');
    expect(resolveIntent('when should I plant the tomatoes', MODES).mode).toBe('garden');
    expect(resolveIntent('how much went on groceries', MODES).mode).toBe('ledger');
  });

  it('is the nearest task\'s cosine: 1 for a phrase that is the task, a shared word that many tasks say below the floor', () => {
    expect(near('when to plant tomatoes').get('garden')).toBeCloseTo(1, 5);
    const lists = mode('lists', 'Lists', ['list the open orders of this customer', 'list the members of the team', 'list the files in the shared folder', 'list the tags on the release', 'list my reminders for today', 'list the invoices that are overdue']);
    const modes = [...MODES, lists];
    expect(near('list', modes)).toEqual(new Map());
    expect(near('list the overdue invoices', modes).get('lists')).toBeGreaterThanOrEqual(NEIGHBOUR_FLOOR);
  });

  it('weighs a word by its rarity among the tasks: "fridge" is in two modes\' tasks, "receipt" in one', () => {
    expect(near('receipt').get('ledger')).toBeGreaterThan(near('fridge').get('ledger') ?? 0);
  });

  it('reads the modes it is given, not those of an earlier call', () => {
    expect(near('water the lawn').has('garden')).toBe(true);
    const others = [MODES[0]!, mode('garden', 'The yard', ['prune the roses'])];
    expect(near('water the lawn', others).has('garden')).toBe(false);
    // The same modes in a fresh array read as before.
    expect(near('water the lawn', [...MODES]).has('garden')).toBe(true);
  });

  it('says nothing without tasks or words', () => {
    expect(near('anything', [mode('bare', 'No tasks', [])])).toEqual(new Map());
    expect(near('')).toEqual(new Map());
    expect(resolveIntent('when to plant tomatoes', [mode('bare', 'No tasks', [])]).mode).toBeNull();
  });
});

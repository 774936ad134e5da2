import { describe, expect, it } from 'vitest';
import { KeptPerOwner } from '../../src/util/kept.js';

describe('KeptPerOwner', () => {
  it('makes a value once per owner, version and key', () => {
    const kept = new KeptPerOwner<number>(4);
    const owner = {};
    const version = {};
    let made = 0;
    const make = () => ++made;
    expect(kept.get(owner, version, 'a', make)).toBe(1);
    expect(kept.get(owner, version, 'a', make)).toBe(1);
    expect(kept.get(owner, version, 'b', make)).toBe(2);
    expect(kept.get({}, version, 'a', make), 'another owner has its own keys').toBe(3);
    expect(kept.get(owner, {}, 'a', make), 'a new version starts the owner over').toBe(4);
    expect(kept.get(owner, version, 'b', make), 'and the old version is gone').toBe(5);
  });

  it('keeps at most max keys per owner, the oldest going first', () => {
    const kept = new KeptPerOwner<string>(2);
    const owner = {};
    const version = {};
    let made = 0;
    const make = (key: string) => () => `${key}${++made}`;
    kept.get(owner, version, 'a', make('a'));
    kept.get(owner, version, 'b', make('b'));
    kept.get(owner, version, 'c', make('c'));
    expect(kept.get(owner, version, 'b', make('b')), 'b stays').toBe('b2');
    expect(kept.get(owner, version, 'c', make('c'))).toBe('c3');
    expect(kept.get(owner, version, 'a', make('a')), 'a, the oldest, went').toBe('a4');
  });
});

import { describe, expect, it } from 'vitest';
import { mentionedUserIds } from './internal-chat.mentions';
import { messageMaxOf } from './internal-chat.service';
import { readStateOf } from './internal-chat.presenter';

const people = [
  { id: 1, name: 'Ana' },
  { id: 2, name: 'Ana Paula' },
  { id: 3, name: 'José' },
  { id: 4, name: 'Bruno' },
];

describe('mentionedUserIds', () => {
  it('finds whole names after @, case and accents aside', () => {
    expect(mentionedUserIds('oi @jose, tudo bem?', people)).toEqual([3]);
    expect(mentionedUserIds('@BRUNO e @josé', people).sort()).toEqual([3, 4]);
    expect(mentionedUserIds('@Bruno@Ana', people).sort()).toEqual([1, 4]);
  });

  it('prefers the longest name and needs the name to end there', () => {
    expect(mentionedUserIds('@Ana Paula veja', people)).toEqual([2]);
    expect(mentionedUserIds('@Ana veja, @Ana Paula também', people).sort()).toEqual([1, 2]);
    expect(mentionedUserIds('@Anabela e @Brunos', people)).toEqual([]);
  });

  it('ignores text without @ and e-mail-like text', () => {
    expect(mentionedUserIds('Ana e Bruno', people)).toEqual([]);
    expect(mentionedUserIds('escreva para bruno@empresa.com', people)).toEqual([]);
  });
});

describe('messageMaxOf', () => {
  it('reads the stored setting, falling back to the default and never above the ceiling', () => {
    expect(messageMaxOf('10')).toBe(10);
    expect(messageMaxOf(undefined)).toBe(4000);
    expect(messageMaxOf('0')).toBe(4000);
    expect(messageMaxOf('abc')).toBe(4000);
    expect(messageMaxOf('999999')).toBe(20000);
  });
});

describe('readStateOf', () => {
  it('counts the readers other than the author; read once all of them read it', () => {
    const lastRead = new Map([
      [2, 10],
      [3, 5],
    ]);
    expect(readStateOf({ id: 5, fromUserId: 1 }, [1, 2, 3], lastRead)).toEqual({ read: true, readCount: 2 });
    expect(readStateOf({ id: 7, fromUserId: 1 }, [1, 2, 3], lastRead)).toEqual({ read: false, readCount: 1 });
    expect(readStateOf({ id: 7, fromUserId: 2 }, [1, 2], lastRead)).toEqual({ read: false, readCount: 0 });
    expect(readStateOf({ id: 7, fromUserId: 1 }, [1], lastRead)).toEqual({ read: false, readCount: 0 });
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { readCatalogFile } from '../../src/catalog/file.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { cleanQuery, MAX_QUERY_TERMS, MAX_QUERY_WORDS, MAX_WORD_CHARS, queryValues } from '../../src/search/query.js';
import { expandQuery, stem, terms } from '../../src/search/text.js';
import { unicodeWords } from '../../src/search/tokenize.js';
import { fold } from '../../src/catalog/text.js';
import { CATALOGS } from '../harness/index.js';

/** Words of every script, query hygiene and stems. */

describe('unicode words', () => {
  it('segments scripts written without spaces', () => {
    expect(Intl.Segmenter).toBeDefined();
    expect(unicodeWords('搜索网页内容并返回结果')).toEqual(expect.arrayContaining(['搜索', '网页', '内容']));
    // Japanese particles (を, ます) carry no topic and are dropped.
    const japanese = unicodeWords('ファイルを読み込みます');
    expect(japanese).toContain('ファイル');
    expect(japanese).not.toContain('を');
  });

  it('folds case and accents alike on every script', () => {
    expect(fold('Löschen')).toBe('loschen');
    expect(fold('Straße')).toBe('strasse');
    expect(fold('Ёлка')).toBe('елка');
    expect(fold('Ｆｉｌｅ')).toBe('file');
    expect(terms('Datei löschen')).toEqual(terms('DATEI LOSCHEN'));
    expect(terms('Удалить ФАЙЛ')).toEqual(terms('удалить файл'));
    expect(terms('Удалить')).toEqual(['удалить']);
    // Kana keep their voicing marks: が is not か.
    expect(fold('が')).toBe('が');
  });

  it('keeps camel and snake case splitting on ASCII names', () => {
    expect(unicodeWords('listPullRequests get_me HTTPServer')).toEqual(['list', 'pull', 'requests', 'get', 'me', 'http', 'server']);
  });
});

describe('query hygiene', () => {
  it('drops base64 blobs, hashes and ids, and bounds a query to a few dozen terms', () => {
    const blob = 'aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3Q+/'.repeat(505).slice(0, 18_686);
    expect(expandQuery(`${blob} summarize this image`).filter((e) => e.own).map((e) => e.term)).toEqual(terms('summarize image'));
    expect(expandQuery(`cherry-pick 3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f on 123e4567-e89b-12d3-a456-426614174000`).map((e) => e.term)).toEqual(
      expect.not.arrayContaining(['3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f', '123e4567']),
    );
    const words = Array.from({ length: 500 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' ');
    expect(expandQuery(words).filter((e) => e.own).length).toBe(MAX_QUERY_TERMS);
  });

  it('reads a bounded number of words, and skips overlong ones (hostile queries: repeated words, 64 KB runs)', () => {
    // Repeated words and stopwords never reach MAX_QUERY_TERMS; reading stops after MAX_QUERY_WORDS words.
    expect(expandQuery(`${'the '.repeat(MAX_QUERY_WORDS)}deploy`)).toEqual([]);
    expect(expandQuery(`${'list '.repeat(MAX_QUERY_WORDS - 1)}deploy`).map((e) => e.term)).toContain(stem('deploy'));
    // A camelCase run of 65,536 characters splits into 32,768 words; only the first are read.
    expect(expandQuery('aB'.repeat(32_768)).map((e) => e.term)).toEqual(['ba']);
    // A single word longer than any tool's words is no term (and is never stemmed).
    expect(expandQuery('x'.repeat(MAX_WORD_CHARS + 1))).toEqual([]);
    expect(expandQuery(`deploy ${'y'.repeat(65_536)}`).filter((e) => e.own).map((e) => e.term)).toEqual([stem('deploy')]);
  });

  it('keeps a URL host and a path last name', () => {
    expect(cleanQuery('get the transcript of https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('get the transcript of youtube watch');
    expect(cleanQuery('summarize /root/html/ai.html')).toBe('summarize html ai html file');
    expect(cleanQuery('read/write access')).toBe('read/write access');
  });

  it('trims a word\'s edge punctuation in time linear in the word: a run of 65,000 dots (or any closing mark) between two letters took 3 s a call, a RegExp trying the run from each of its characters', () => {
    expect(cleanQuery('see (https://example.com/docs/guide), then "summarize /tmp/a.docx".')).toBe('see example docs guide then summarize a docx file');
    const read = (query: string) => [...queryValues(query, (ending) => ending === 'docx', () => false).suffixes];
    expect(read('open "report.docx".')).toEqual(['docx']);
    // 13 closing marks, each read twice (cleanQuery and queryValues): minutes of blocked event loop before.
    for (const mark of ')"\'`>]},.;:!?') {
      const word = `a${mark.repeat(65_000)}b`;
      expect(cleanQuery(word)).toBe(word);
      expect(read(`${word} report.docx`)).toEqual(['docx']);
    }
  });

  it('weighs generic verbs below object words', () => {
    const expansion = expandQuery('save the summary');
    expect(expansion.find((e) => e.term === stem('save'))?.weight).toBeLessThan(expansion.find((e) => e.term === stem('summary'))?.weight ?? 0);
  });
});

describe('stems', () => {
  it('conflates inflections without merging a hyphenated modifier into another word', () => {
    expect(stem('different')).toBe(stem('differences'));
    expect(stem('vulnerabilities')).toBe(stem('vulnerability'));
    expect(terms('LLM-related papers')).not.toContain(stem('relations'));
    expect(terms('create relations')).toContain(stem('relations'));
  });
});

describe('search over a catalog in Chinese, Japanese, German, Russian and French', async () => {
  const { catalog } = buildCatalog(await readCatalogFile(path.join(CATALOGS, 'unicode.json')), resolveConfig({}));
  const index = new SearchIndex(catalog.tools, catalog.groups);
  const top = (query: string) => index.search(query, { limit: 3 }).map((hit) => hit.tool.id);
  it.each([
    ['天气预报', 'wenku:get_weather'],
    ['火车票', 'wenku:train_tickets'],
    ['ファイル 書き込み', 'nihongo:write_file'],
    ['メール 送信', 'nihongo:send_mail'],
    ['Datei loschen', 'werkzeug:datei_loeschen'],
    ['Strasse Karte', 'werkzeug:strassen_suche'],
    ['прогноз погоды', 'instrumenty:weather_forecast'],
    ['курс валюты', 'instrumenty:currency_rate'],
    ['creer facture', 'outils:creer_facture'],
  ])('"%s" finds %s', (query, id) => {
    expect(top(query)).toContain(id);
  });
});

describe('word splits of capital runs', () => {
  it('ends an acronym before a capitalized word, in ASCII and in any script', () => {
    expect(unicodeWords('HTMLParser getURLForID XMLHttpRequest ABcDEf')).toEqual(['html', 'parser', 'get', 'url', 'for', 'id', 'xml', 'http', 'request', 'a', 'bc', 'd', 'ef']);
    expect(unicodeWords('ÄÖÜParser ÉTATCivil née')).toEqual(['aou', 'parser', 'etat', 'civil', 'nee']);
  });

  it('splits a long run of capitals in linear time (the two-group pattern backtracked over the run at every start)', () => {
    // 200,000 capitals: the old split took minutes (16,000 took 0.8 s in ASCII, 18 s with one non-ASCII character).
    for (const text of ['A'.repeat(200_000), `${'A'.repeat(200_000)}…`]) expect(unicodeWords(text)).toEqual(['a'.repeat(200_000)]);
  });
});

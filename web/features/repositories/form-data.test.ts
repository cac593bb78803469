import { describe, expect, it } from 'vitest';

import { REPOSITORY_MESSAGES as M } from '#shared/schemas/repository.ts';

import {
  checkSoftwareRepo,
  checkTrialRepo,
  fileHref,
  formatMetadata,
  readableSize,
  softwareRepoBody,
  trialRepoBody,
  typeKey,
} from './form-data.ts';

const GROUP = '7d2b7c1e-4c55-4d2a-9c1f-0a1b2c3d4e5f';
const zip = () => new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], 'source.zip', { type: 'application/zip' });
const software = {
  group: GROUP,
  type: 'ZIP File',
  githubUrl: '',
  clonedRepoPath: '',
  metadata: '',
  file: null as File | null,
};
const trial = {
  group: GROUP,
  type: 'Field trial',
  githubUrl: '',
  clonedRepoPath: '',
  sizeInKB: '' as number | string,
  duration: '' as number | string,
  languageUsed: '',
  file: zip() as File | null,
};

describe('software upload form', () => {
  it.each([
    [{ group: '', type: '' }, M.softwareGroupAndType, ['group', 'type']],
    [{ type: '' }, M.softwareGroupAndType, ['type']],
    [{}, M.softwareSource, ['file']],
    [{ githubUrl: 'not a url' }, M.githubUrl, ['githubUrl']],
    [{ githubUrl: 'https://github.com/a/b', metadata: '{"a":' }, M.metadataJson, ['metadata']],
  ])('refuses %j in the spec words', (change, message, fields) => {
    const errors = checkSoftwareRepo({ ...software, ...change });
    expect(Object.keys(errors)).toEqual(fields);
    expect(Object.values(errors)[0]).toBe(message);
  });

  it('sends the fields first and the file last, leaving out blanks', () => {
    const values = { ...software, metadata: ' {"v": 1} ', clonedRepoPath: ' /srv/git/x ', file: zip() };
    expect(checkSoftwareRepo(values)).toEqual({});
    const data = softwareRepoBody(values);
    expect([...data.keys()]).toEqual(['group', 'type', 'clonedRepoPath', 'metadata', 'file']);
    expect(data.get('clonedRepoPath')).toBe('/srv/git/x');
    expect(data.get('metadata')).toBe('{"v": 1}');
  });
});

describe('trial upload form', () => {
  it.each([
    [{ group: '' }, M.trialRequired],
    [{ type: ' ' }, M.trialRequired],
    [{ file: null }, M.trialRequired],
    [{ sizeInKB: -1 }, M.sizeInKB],
    [{ duration: '-0.5' }, M.duration],
  ])('refuses %j', (change, message) => {
    const errors = checkTrialRepo({ ...trial, ...change });
    expect(Object.values(errors)[0]).toBe(message);
  });

  it('sends metadata as one JSON text: numbers parsed, languages split, trimmed, blanks dropped', () => {
    const values = { ...trial, sizeInKB: '2048', duration: 12.5, languageUsed: ' C ,Python,, , Go' };
    expect(checkTrialRepo(values)).toEqual({});
    const data = trialRepoBody(values);
    expect(JSON.parse(data.get('metadata') as string)).toEqual({
      sizeInKB: 2048,
      duration: 12.5,
      languageUsed: ['C', 'Python', 'Go'],
    });
    expect([...data.keys()].at(-1)).toBe('file');
  });

  it('sends blank numbers as null', () => {
    expect(checkTrialRepo(trial)).toEqual({});
    expect(JSON.parse(trialRepoBody(trial).get('metadata') as string)).toEqual({
      sizeInKB: null,
      duration: null,
      languageUsed: [],
    });
  });
});

describe('card helpers', () => {
  it('turns backslashes into slashes in file links (spec §7)', () => {
    expect(fileHref('\\uploads\\trial-repos\\abc')).toBe('/uploads/trial-repos/abc');
  });
  it('formats metadata as indented JSON, none as null', () => {
    expect(formatMetadata({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(formatMetadata(null)).toBeNull();
  });
  it('names sizes and types', () => {
    expect(readableSize(1024 ** 3)).toBe('1 GB');
    expect(readableSize(1536)).toBe('1.5 KB');
    expect(readableSize(12)).toBe('12 bytes');
    expect(typeKey('ZIP File')).toBe('types.zip');
    expect(typeKey('Video')).toBeNull();
  });
});

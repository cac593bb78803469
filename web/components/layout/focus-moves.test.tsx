import { afterEach, describe, expect, it } from 'vitest';

import { focusPageHeading } from './focus-moves.ts';

// Issue 35 item 2: after each move between pages the focus goes to the new page's h1, also when the page (loaded
// lazily) draws it a moment later; never away from where the person has already gone.

function mainArea() {
  const main = document.createElement('main');
  main.tabIndex = -1;
  document.body.append(main);
  return main;
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.body.replaceChildren();
});

describe('focusPageHeading', () => {
  it('focuses the h1 already drawn', () => {
    const main = mainArea();
    main.innerHTML = '<h1 tabindex="-1">Letters Manager</h1><button>Upload</button>';
    focusPageHeading(main);
    expect(document.activeElement?.textContent).toBe('Letters Manager');
  });

  it('waits for a page that draws its h1 later, and makes a plain h1 focusable', async () => {
    const main = mainArea();
    focusPageHeading(main);
    expect(document.activeElement).toBe(main);
    const heading = document.createElement('h1');
    heading.textContent = 'Login';
    main.append(heading);
    await nextTurn();
    expect(document.activeElement).toBe(heading);
    expect(heading.tabIndex).toBe(-1);
  });

  it('leaves the focus where the person moved it before the h1 came', async () => {
    const main = mainArea();
    const search = document.createElement('input');
    document.body.prepend(search);
    focusPageHeading(main);
    search.focus();
    main.innerHTML = '<h1>Search</h1>';
    await nextTurn();
    expect(document.activeElement).toBe(search);
  });

  it('stops waiting when told to', async () => {
    const main = mainArea();
    const stop = focusPageHeading(main);
    stop();
    main.innerHTML = '<h1>Home</h1>';
    await nextTurn();
    expect(document.activeElement).toBe(main);
  });
});

import { afterEach, describe, expect, it } from 'vitest';

import {
  focusClosedNavigation,
  focusOpenedNavigation,
  focusPageHeading,
  focusPageTop,
  PAGE_TOP_ID,
  PAGE_TOP_STATE,
  wantsPageTop,
} from './focus-moves.ts';

// Decision 032: after each move between pages the focus goes to the new page's h1, also when the page (loaded
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

// Decision 032's follow-up: the narrow-screen navigation takes the focus to its first link when it opens, and gives it
// back to the menu button when it closes.
function narrowNavigation() {
  const burger = document.createElement('button');
  burger.setAttribute('aria-controls', 'mobile-navigation');
  burger.textContent = 'Open navigation';
  const drawer = document.createElement('nav');
  drawer.id = 'mobile-navigation';
  drawer.innerHTML = '<input type="search" aria-label="Search">';
  document.body.append(burger, drawer);
  burger.focus();
  return { burger, drawer };
}

const navigationList = '<nav><a href="/">Home</a><a href="/login">Login</a></nav>';

describe('focusOpenedNavigation', () => {
  it('focuses the first link of the list, past the search box', () => {
    const { drawer } = narrowNavigation();
    drawer.insertAdjacentHTML('beforeend', navigationList);
    focusOpenedNavigation(drawer);
    expect(document.activeElement?.textContent).toBe('Home');
  });

  it('waits for the list, which loads on first use', async () => {
    const { burger, drawer } = narrowNavigation();
    focusOpenedNavigation(drawer);
    expect(document.activeElement).toBe(burger);
    drawer.insertAdjacentHTML('beforeend', navigationList);
    await nextTurn();
    expect(document.activeElement?.textContent).toBe('Home');
  });

  it('leaves the focus where the person moved it before the list came', async () => {
    const { drawer } = narrowNavigation();
    focusOpenedNavigation(drawer);
    const search = drawer.querySelector('input')!;
    search.focus();
    drawer.insertAdjacentHTML('beforeend', navigationList);
    await nextTurn();
    expect(document.activeElement).toBe(search);
  });
});

describe('focusClosedNavigation', () => {
  // jsdom lays nothing out: the menu button counts as shown when it has a box.
  const withBox = (el: HTMLElement) => {
    el.getClientRects = () => [new DOMRect(0, 0, 40, 40)] as unknown as DOMRectList;
  };

  it('returns the focus to the menu button when the closed navigation took it away', () => {
    const { burger, drawer } = narrowNavigation();
    withBox(burger);
    drawer.insertAdjacentHTML('beforeend', navigationList);
    drawer.querySelector('a')!.focus();
    drawer.replaceChildren(); // the list goes with the closed navigation
    expect(document.activeElement).toBe(document.body);
    focusClosedNavigation(drawer);
    expect(document.activeElement).toBe(burger);
  });

  it('leaves a focus that is elsewhere on the page', () => {
    const { burger, drawer } = narrowNavigation();
    withBox(burger);
    const elsewhere = document.createElement('button');
    document.body.append(elsewhere);
    elsewhere.focus();
    focusClosedNavigation(drawer);
    expect(document.activeElement).toBe(elsewhere);
  });

  it('leaves a menu button that is not shown (a wide screen) alone', () => {
    const { burger, drawer } = narrowNavigation();
    burger.blur();
    focusClosedNavigation(drawer);
    expect(document.activeElement).toBe(document.body);
  });
});

describe('focusPageTop (decision 100)', () => {
  it('is asked for by the navigation state { focus: "top" } only', () => {
    expect(wantsPageTop(PAGE_TOP_STATE)).toBe(true);
    expect(wantsPageTop(null)).toBe(false);
    expect(wantsPageTop({ from: '/dac' })).toBe(false);
    expect(wantsPageTop('top')).toBe(false);
  });

  it('puts the focus on the element before the skip links, so the next Tab reaches them', () => {
    const top = document.createElement('span');
    top.id = PAGE_TOP_ID;
    top.tabIndex = -1;
    const skip = document.createElement('a');
    skip.href = '#main-content';
    const main = mainArea();
    main.innerHTML = '<h1 tabindex="-1">Home</h1>';
    document.body.prepend(top, skip);
    focusPageTop();
    expect(document.activeElement).toBe(top);
  });
});

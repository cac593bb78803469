import { Box, type MantineSpacing, Tabs, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export interface UnitTabsProps<Tab extends string> {
  /** The tabs in the spec's order; the first is the default and keeps the URL bare. */
  tabs: readonly Tab[];
  /** The tab list's name for screen readers. */
  label: string;
  /** A tab's text, also the heading of its panel. */
  title: (tab: Tab) => string;
  /** The open tab's content (only the open one is rendered). */
  children: (tab: Tab) => ReactNode;
  mt?: MantineSpacing;
}

/** A long tab text wraps inside its tab (Mantine's tabs do not wrap, so it ran out of the menu). */
const TAB_STYLE = { whiteSpace: 'normal', lineHeight: 1.3, textAlign: 'start' } as const;

/**
 * The side menu of ten tabs of the lab home and the group page (spec §2). The open tab is kept in ?tab= so it can be
 * linked to (the lab's latest box "View all" opens Notices & Circular). Vertical beside the content on wide screens,
 * wrapped on top on phones. The side menu is 14rem wide and never shrinks, so it grows with the reader's text size
 * (A−, A, A+) instead of giving way to the panel: it had a minimum of 210 px, and at A+ its labels ran out of it and
 * under the panel's heading.
 */
export function UnitTabs<Tab extends string>({ tabs, label, title, children, mt }: UnitTabsProps<Tab>) {
  const [params, setParams] = useSearchParams();
  const wide = useMediaQuery('(min-width: 48em)', true);
  const first = tabs[0]!;
  const requested = params.get('tab') as Tab | null;
  const active: Tab = requested && tabs.includes(requested) ? requested : first;

  const select = (value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (!value || value === first) next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <Tabs
      value={active}
      onChange={select}
      orientation={wide ? 'vertical' : 'horizontal'}
      variant="pills"
      keepMounted={false}
      mt={mt}
    >
      <Tabs.List
        aria-label={label}
        style={wide ? { flex: '0 0 14rem' } : { flexWrap: 'wrap', marginBottom: 'var(--mantine-spacing-md)' }}
      >
        {tabs.map((tab) => (
          <Tabs.Tab key={tab} value={tab} style={TAB_STYLE}>
            {title(tab)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Panel key={tab} value={tab} pl={wide ? 'lg' : 0} style={{ minWidth: 0 }}>
          <Box>
            <Title order={2} size="h3" mb="md">
              {title(tab)}
            </Title>
            {children(tab)}
          </Box>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

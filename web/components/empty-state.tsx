import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a list shows when it has nothing (each screen passes the spec's words, e.g. 'No letters found'). */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="md" ta="center" bg="gray.0">
      <Text c="gray.8">{children}</Text>
      {action ? <div style={{ marginTop: 'var(--mantine-spacing-md)' }}>{action}</div> : null}
    </Paper>
  );
}

import { Alert, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A panel's, form's or dialog's failure (red, role alert), in the words spec §8 gives it (each screen passes them). */
export function PanelError({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" variant="light" role="alert">
      <Text c="gray.9">{children}</Text>
    </Alert>
  );
}

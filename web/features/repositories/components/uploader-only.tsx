import { Alert, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { Role } from '#shared/constants.ts';

import { mayUploadRepositories } from '#web/lib/access.policy.ts';

/** The upload form for those who may upload; others are told why there is none (the server refuses them anyway). */
export function UploaderOnly({ role, children }: { role: Role | null; children: ReactNode }) {
  const { t } = useTranslation('repositories');
  if (mayUploadRepositories(role)) return <>{children}</>;
  return (
    <Alert color="navy" variant="light">
      <Text c="gray.9">{t('form.notAllowed')}</Text>
    </Alert>
  );
}

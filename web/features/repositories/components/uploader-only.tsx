import type { ReactNode } from 'react';
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Role } from '#shared/constants.ts';

/** Roles that may upload repositories (the server's rule, repositories.policy.ts UPLOADER_ROLES). */
const UPLOADERS: readonly Role[] = ['associate_director', 'admin'];

/** The upload form for those who may upload; others are told why there is none (the server refuses them anyway). */
export function UploaderOnly({ role, children }: { role: Role | null; children: ReactNode }) {
  const { t } = useTranslation('repositories');
  if (role && UPLOADERS.includes(role)) return <>{children}</>;
  return (
    <Alert color="navy" variant="light">
      <Text c="gray.9">{t('form.notAllowed')}</Text>
    </Alert>
  );
}

import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

import { PageTitle } from '#web/components/page-title.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';

/** Status → i18n key of a sentence, e.g. {403: 'groups:accessDenied'} for the spec's group Access Denied text. */
export type StatusMessages = Partial<Record<number, string>>;

type Kind = 'network' | 'badRequest' | 'signIn' | 'forbidden' | 'notFound' | 'updated' | 'server';

function kindOf(error: unknown): { kind: Kind; status: number | null } {
  const status = isRouteErrorResponse(error) ? error.status : error instanceof ApiError ? error.status : null;
  if (status === 0) return { kind: 'network', status };
  if (status === 401) return { kind: 'signIn', status };
  if (status === 403) return { kind: 'forbidden', status };
  if (status === 404) return { kind: 'notFound', status };
  if (status !== null && status >= 400 && status < 500) return { kind: 'badRequest', status };
  // A lazy screen whose file is gone after a new version was deployed.
  if (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message)
  )
    return { kind: 'updated', status };
  return { kind: 'server', status };
}

/**
 * The error element of every route (epic-stack's GeneralErrorBoundary with statusHandlers): it turns a status into
 * words instead of a blank page. `messages` replaces the sentence for a status with the screen's own (spec) words.
 */
export function RouteError({ messages }: { messages?: StatusMessages }) {
  const error = useRouteError();
  const { t } = useTranslation('common');
  const { kind, status } = kindOf(error);
  const custom = status !== null ? messages?.[status] : undefined;
  // The server's sentence, in the reader's language by its code (decision 034).
  const serverSaid = kind === 'badRequest' ? serverMessage(error) : '';
  if (kind === 'server' && import.meta.env.DEV) console.error(error);
  return (
    <Stack gap="md" maw={720}>
      <PageTitle>{t(`errors.${kind}.title`)}</PageTitle>
      <Alert color={kind === 'notFound' ? 'navy' : 'red'} variant="light" role="alert">
        <Text c="gray.9">{custom ? t(custom) : serverSaid || t(`errors.${kind}.text`)}</Text>
      </Alert>
      <Group>
        {kind === 'signIn' ? (
          <Button component={Link} to={paths.login}>
            {t('nav.login')}
          </Button>
        ) : (
          <Button onClick={() => window.location.reload()}>{t('errors.reload')}</Button>
        )}
        <Button component={Link} to={paths.home} variant="default">
          {t('errors.goHome')}
        </Button>
      </Group>
    </Stack>
  );
}

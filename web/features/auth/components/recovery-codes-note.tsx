import { Alert, Code, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The recovery codes of a first factor, shown once (decision 064), with what they are for. */
export function RecoveryCodesNote({ codes }: { codes: string[] }) {
  const { t } = useTranslation('auth');
  return (
    <Alert color="yellow" variant="light" role="status">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('passkey.recoveryTitle')}
        </Title>
        <Text c="gray.9" size="sm">
          {t('passkey.recoveryIntro')}
        </Text>
        <SimpleGrid cols={2} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {codes.map((code) => (
            <li key={code}>
              <Code c="gray.9">{code}</Code>
            </li>
          ))}
        </SimpleGrid>
      </Stack>
    </Alert>
  );
}

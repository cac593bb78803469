import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageTitle } from '#web/components/page-title.tsx';
import { paths } from '#web/lib/paths.ts';

const FEATURES = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'] as const;

/** /accessibility — the Accessibility statement of GIGW 3.0 (decision 019). Public. */
export default function AccessibilityRoute() {
  const { t } = useTranslation('site');
  return (
    <Stack gap="md" maw={860}>
      <PageTitle mb={0}>{t('accessibility.title')}</PageTitle>
      <Text>{t('accessibility.lead')}</Text>
      <Title order={2} size="h3">
        {t('accessibility.standardTitle')}
      </Title>
      <Text>{t('accessibility.standard')}</Text>
      <Title order={2} size="h3">
        {t('accessibility.featuresTitle')}
      </Title>
      <List spacing="xs">
        {FEATURES.map((f) => (
          <List.Item key={f}>{t(`accessibility.features.${f}`)}</List.Item>
        ))}
      </List>
      <Title order={2} size="h3">
        {t('accessibility.limitsTitle')}
      </Title>
      <Text>{t('accessibility.limits')}</Text>
      <Title order={2} size="h3">
        {t('accessibility.contactTitle')}
      </Title>
      <Text>
        {t('accessibility.contact')}{' '}
        <Anchor component={Link} to={paths.feedback} fw={600}>
          {t('footer.feedback')}
        </Anchor>
      </Text>
    </Stack>
  );
}

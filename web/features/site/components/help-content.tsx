import { Accordion, Badge, Group, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { Role } from '#shared/constants.ts';

import { type ReaderKind, readerKindOf } from '#web/lib/access.policy.ts';

/** The help sections, one per kind of user, in the order a newcomer meets them. */
const HELP_ROLES = [
  'visitor',
  'employee',
  'associateDirector',
  'director',
  'admin',
] as const satisfies readonly ReaderKind[];
/** What everyone uses (search, text size and contrast; issue 35 item 4): first, and always open. */
const SECTIONS = ['everyone', ...HELP_ROLES] as const;

type Tasks = Record<string, { title: string; steps: Record<string, string> }>;

/**
 * How to do the main tasks, per role (issue 16 item 9): every section is there, the reader's own is open and marked,
 * after the section for everyone. The texts live in the site namespace (help.roles.<section>.tasks.<task>.steps), in
 * English and Hindi.
 */
export function HelpContent({ role }: { role: Role | null }) {
  const { t } = useTranslation('site');
  const mine = readerKindOf(role); // the reader's own section
  return (
    <Accordion variant="separated" multiple defaultValue={['everyone', mine]} chevronPosition="right" order={2}>
      {SECTIONS.map((key) => {
        const tasks = t(`help.roles.${key}.tasks`, { returnObjects: true }) as Tasks;
        return (
          <Accordion.Item key={key} value={key}>
            <Accordion.Control>
              <Group gap="sm">
                <Text fw={700} component="span">
                  {t(`help.roles.${key}.title`)}
                </Text>
                {key === mine && (
                  <Badge color="navy" variant="filled">
                    {t('help.forYou')}
                  </Badge>
                )}
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="md">
                {Object.entries(tasks).map(([id, task]) => (
                  <div key={id}>
                    <Title order={3} size="h5" mb={4}>
                      {task.title}
                    </Title>
                    <List type="ordered" spacing={4}>
                      {Object.entries(task.steps).map(([step, text]) => (
                        <List.Item key={step}>{text}</List.Item>
                      ))}
                    </List>
                  </div>
                ))}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}

import { Accordion, Badge, Group, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { Role } from '#shared/constants.ts';

import { helpFor, helpNamespace } from '#web/features/site/help-sections.ts';
import { readerKindOf } from '#web/lib/access.policy.ts';

interface Task {
  title: string;
  steps: Record<string, string>;
  /** The keyboard path, e.g. "Tab to …, Enter". */
  keys: string;
}

/**
 * How to do every task the reader's role can use (decision 101): the sections of
 * web/features/site/help-sections.ts that this role may use, grouped by the kind of reader they are first for; the
 * section for everyone and the reader's own are open, the reader's own marked. Each task ends with its keyboard path.
 */
export function HelpContent({ role }: { role: Role | null }) {
  const { t } = useTranslation(['help', 'help-officers']);
  const mine = readerKindOf(role); // the reader's own section
  return (
    <Accordion variant="separated" multiple defaultValue={['everyone', mine]} chevronPosition="right" order={2}>
      {helpFor(role).map(({ group, tasks }) => (
        <Accordion.Item key={group} value={group}>
          <Accordion.Control>
            <Group gap="sm">
              <Text fw={700} component="span">
                {t(`roles.${group}.title`, { ns: helpNamespace(group) })}
              </Text>
              {group === mine && (
                <Badge color="navy" variant="filled">
                  {t('forYou')}
                </Badge>
              )}
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="md">
              {tasks.map((id) => {
                const task = t(`roles.${group}.tasks.${id}`, { ns: helpNamespace(group), returnObjects: true }) as Task;
                return (
                  <section key={id} id={`help-${group}-${id}`} aria-labelledby={`help-${group}-${id}-title`}>
                    <Title order={3} size="h5" mb={4} id={`help-${group}-${id}-title`}>
                      {task.title}
                    </Title>
                    <List type="ordered" spacing={4}>
                      {Object.entries(task.steps).map(([step, text]) => (
                        <List.Item key={step}>{text}</List.Item>
                      ))}
                    </List>
                    <Text size="sm" mt={4}>
                      <Text span fw={700}>
                        {t('keyboard')}
                      </Text>{' '}
                      {task.keys}
                    </Text>
                  </section>
                );
              })}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

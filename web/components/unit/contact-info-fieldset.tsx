import { ActionIcon, Button, Fieldset, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { FormArrayElement, UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { CONTACT_TYPES } from '#shared/constants.ts';
import type { ContactInfoInput } from '#shared/schemas/unit.ts';

export interface ContactInfoFieldsetProps<Values extends { contactInfo?: ContactInfoInput[] }> {
  /** The lab's or the group's form; its contactInfo list is edited here. */
  form: UseFormReturnType<Values>;
  legend: string;
  /** Shown while the list is empty. */
  empty: string;
  /** A field's error in the current language (the caller's namespace words its schema's messages). */
  error: (path: string) => ReactNode;
}

/**
 * The Contact Us entries of the lab and group editors (spec §5 Lab: type Email, Phone, Address or Other; the label is
 * optional; a value is required), with Add contact and a remove button per entry.
 */
export function ContactInfoFieldset<Values extends { contactInfo?: ContactInfoInput[] }>({
  form,
  legend,
  empty,
  error,
}: ContactInfoFieldsetProps<Values>) {
  const { t } = useTranslation('common');
  const contacts = form.getValues().contactInfo ?? [];
  const typeOptions = CONTACT_TYPES.map((type) => ({ value: type, label: t(`unit.contactTypes.${type}`) }));
  const blank = { type: 'Email', label: '', value: '' } as FormArrayElement<Values, 'contactInfo'>;
  return (
    <Fieldset legend={legend}>
      <Stack gap="sm">
        {contacts.length === 0 && <Text c="gray.8">{empty}</Text>}
        {contacts.map((_, index) => (
          <Group key={form.key(`contactInfo.${index}`)} align="flex-start" wrap="wrap" gap="sm">
            <Select
              label={t('unit.contactType')}
              data={typeOptions}
              allowDeselect={false}
              w={150}
              {...form.getInputProps(`contactInfo.${index}.type`)}
              error={error(`contactInfo.${index}.type`)}
            />
            <TextInput label={t('unit.contactLabel')} w={180} {...form.getInputProps(`contactInfo.${index}.label`)} />
            <TextInput
              label={t('unit.contactValue')}
              required
              style={{ flex: '1 1 14rem' }}
              {...form.getInputProps(`contactInfo.${index}.value`)}
              error={error(`contactInfo.${index}.value`)}
            />
            <ActionIcon
              variant="subtle"
              color="red.9"
              size="lg"
              mt={26}
              onClick={() => form.removeListItem('contactInfo', index)}
              aria-label={t('unit.removeContact', { number: index + 1 })}
            >
              <span aria-hidden="true">✕</span>
            </ActionIcon>
          </Group>
        ))}
        <div>
          <Button variant="light" onClick={() => form.insertListItem('contactInfo', blank)}>
            {t('unit.addContact')}
          </Button>
        </div>
      </Stack>
    </Fieldset>
  );
}

import { Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

import type { AcknowledgedDocumentJson, AcknowledgementAudienceJson } from '#shared/schemas/acknowledgements.ts';

/** Whose notice or circular it is: "From the lab: …" or "From the group: …". */
export function OwnerLine({ owner }: { owner: AcknowledgedDocumentJson['owner'] }) {
  const { t } = useTranslation('acknowledgements');
  return (
    <Text size="sm" c="gray.8">
      {t(`owner.${owner.type}`, { name: owner.name })}
    </Text>
  );
}

/**
 * Who is asked to acknowledge, in words: "the whole lab", the chosen groups' names, or the chosen roles (of its group,
 * for a group's notice: the server answers that group with the roles).
 */
export function audienceText(audience: AcknowledgementAudienceJson, t: TFunction): string {
  const separator = t('acknowledgements:audience.separator');
  if (audience.scope === 'lab') return t('acknowledgements:audience.lab');
  if (audience.scope === 'groups')
    return t('acknowledgements:audience.groups', { names: audience.groups.map((g) => g.name).join(separator) });
  const roles = audience.roles.map((r) => t(`common:roles.${r}`)).join(separator);
  const [group] = audience.groups;
  return group
    ? t('acknowledgements:audience.groupRoles', { roles, group: group.name })
    : t('acknowledgements:audience.roles', { roles });
}

/** Whole percent acknowledged, rounded down (99.6 % is not yet 100 %); 0 of nobody is 0. */
export const percentOf = (acknowledged: number, audience: number) =>
  audience > 0 ? Math.floor((acknowledged * 100) / audience) : 0;

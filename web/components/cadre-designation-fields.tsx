import { NativeSelect, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

import { type Cadre, CADRES, DESIGNATIONS } from '#shared/constants.ts';

/** The part of a Mantine form these fields drive: any form with professionalDetails.cadre and .designation. */
export interface CadreForm {
  values: { professionalDetails: { cadre: Cadre | '' } };
  setFieldValue: (path: 'professionalDetails.cadre' | 'professionalDetails.designation', value: string) => void;
  clearFieldError: (path: 'professionalDetails.designation') => void;
}

export interface CadreDesignationFieldsProps {
  form: CadreForm;
  /** The form's getInputProps, with its errors already in the current language. */
  field: (path: 'professionalDetails.cadre' | 'professionalDetails.designation') => GetInputPropsReturnType;
  /** How a cadre reads in the option list (each form keeps its own wording). */
  cadreLabel: (cadre: Cadre) => string;
  /** Longest free-text designation (cadre Other). */
  designationMaxLength?: number;
}

/**
 * Cadre and Designation (spec §3 professionalDetails, §5 cadre → designation lists): the designation select lists the
 * chosen cadre's designations, is free text for cadre Other, and changing the cadre clears it (spec §4). Used by
 * Register New User and Edit Profile.
 */
export function CadreDesignationFields({ form, field, cadreLabel, designationMaxLength }: CadreDesignationFieldsProps) {
  const { t } = useTranslation('common');
  const cadre = form.values.professionalDetails.cadre;
  const onCadreChange = (value: string) => {
    form.setFieldValue('professionalDetails.cadre', value);
    form.setFieldValue('professionalDetails.designation', ''); // spec §4: changing the cadre clears the designation
    form.clearFieldError('professionalDetails.designation');
  };

  return (
    <>
      <NativeSelect
        label={t('cadreFields.cadre')}
        data={[
          { value: '', label: t('cadreFields.selectCadre') },
          ...CADRES.map((c) => ({ value: c, label: cadreLabel(c) })),
        ]}
        {...field('professionalDetails.cadre')}
        onChange={(event) => onCadreChange(event.currentTarget.value)}
      />
      {cadre === 'Other' ? (
        <TextInput
          label={t('cadreFields.designation')}
          required
          maxLength={designationMaxLength}
          {...field('professionalDetails.designation')}
        />
      ) : (
        <NativeSelect
          label={t('cadreFields.designation')}
          required={Boolean(cadre)}
          disabled={!cadre}
          description={cadre ? undefined : t('cadreFields.chooseCadreFirst')}
          data={[
            { value: '', label: t('cadreFields.selectDesignation') },
            ...(cadre ? DESIGNATIONS[cadre] : []).map((d) => ({ value: d, label: d })),
          ]}
          {...field('professionalDetails.designation')}
        />
      )}
    </>
  );
}

import { Button, Group } from '@mantine/core';

export interface FormActionsProps {
  onCancel: () => void;
  cancelLabel: string;
  submitLabel: string;
  /** The request is out: the submit button shows it is busy. */
  pending: boolean;
  submitColor?: string;
  /** Start on Cancel (a dialog that takes something away). */
  focusCancel?: boolean;
}

/** The foot of a dialog's form: Cancel, then the submit button, at the right. */
export function FormActions({
  onCancel,
  cancelLabel,
  submitLabel,
  pending,
  submitColor,
  focusCancel,
}: FormActionsProps) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} data-autofocus={focusCancel || undefined}>
        {cancelLabel}
      </Button>
      <Button type="submit" color={submitColor} loading={pending}>
        {submitLabel}
      </Button>
    </Group>
  );
}

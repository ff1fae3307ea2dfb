import { Box } from '@mantine/core';

/**
 * A list's yes/no mark: a green dot for yes, a grey one for no, with its words for screen readers
 * and on hover (the users' 'Vendedor', the brokers' 'Comisión KAM').
 */
export function StatusDot({ isOn, label }: { isOn: boolean; label: string }) {
  return (
    <Box
      component="span"
      role="img"
      aria-label={label}
      title={label}
      data-on={isOn}
      display="inline-block"
      w={12}
      h={12}
      style={{
        borderRadius: '50%',
        background: isOn ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-gray-4)',
      }}
    />
  );
}

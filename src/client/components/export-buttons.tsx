import { Button, Group } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import type { ExportFormat } from '../../shared/reports/columns';
import { downloadOnClick } from '../lib/download';

const BUTTONS = [
  { format: 'csv' as const, label: 'Exportar CSV', icon: <IconFileTypeCsv size={16} /> },
  { format: 'xlsx' as const, label: 'Exportar Excel', icon: <IconFileSpreadsheet size={16} /> },
];

/**
 * 'Exportar CSV' and 'Exportar Excel': downloads (links the server answers with a file) of a list as
 * filtered and sorted; disabled when it has no rows. The page fetches the file (`lib/download.ts`):
 * a refusal (one export at a time, decision 0050) shows as a notification, not as a broken file.
 *
 *   <ExportButtons hrefOf={(format) => exportHref('/api/audit', query, format)} disabled={!rows?.length} />
 *
 * (`exportHref` of lib/api.ts builds the address.)
 */
export function ExportButtons({
  hrefOf,
  disabled,
  allowed = true,
}: {
  hrefOf: (format: ExportFormat) => string;
  disabled: boolean;
  /** Whether the user holds the action the export route declares (issue 56): not shown otherwise. */
  allowed?: boolean;
}) {
  if (!allowed) return null;
  return (
    <Group gap="xs">
      {BUTTONS.map((button) =>
        disabled ? (
          <Button key={button.format} variant="default" leftSection={button.icon} disabled>
            {button.label}
          </Button>
        ) : (
          <Button
            key={button.format}
            component="a"
            href={hrefOf(button.format)}
            download
            onClick={downloadOnClick(hrefOf(button.format))}
            variant="default"
            leftSection={button.icon}
          >
            {button.label}
          </Button>
        ),
      )}
    </Group>
  );
}

import { List, NativeSelect, Stack, Text } from '@mantine/core';
import { formatInteger } from '../../../shared/format';
import { type DryRunResult, skippedSentence, type UploadedFile } from '../../../shared/schemas/imports';

/**
 * Where the table starts (issue 55, decision 0049): the header row the server found below a title
 * block — or the one chosen — said in words, with the first rows of the file offered to choose
 * another before mapping the columns.
 */
export function HeaderRowChoice({
  file,
  onChoose,
  disabled,
}: {
  file: UploadedFile;
  onChoose: (headerRow: number) => void;
  disabled?: boolean;
}) {
  const options = file.headerCandidates.map((row) => ({
    value: String(row.rowNumber),
    label: `Fila ${row.rowNumber}: ${row.text || '(sin texto)'}`,
  }));
  return (
    <Stack gap={4}>
      <Text data-testid="import-header-row">
        Encabezado en la fila <strong>{file.headerRow}</strong>
        {file.headerChosen ? ' (elegida)' : ''}
      </Text>
      {options.length > 1 && (
        <NativeSelect
          label="Fila de encabezado"
          description="Si los títulos de las columnas están en otra fila, elíjala."
          data={options}
          value={String(file.headerRow)}
          onChange={(event) => onChoose(Number(event.currentTarget.value))}
          disabled={disabled}
          maw={520}
        />
      )}
    </Stack>
  );
}

/** The review's note of where the header was and which rows were not read as data. */
export function SkippedRowsNote({ review }: { review: DryRunResult }) {
  const more = review.skippedCount - review.skippedRows.length;
  return (
    <Stack gap={4} data-testid="import-skipped">
      <Text size="sm">
        Encabezado en la fila {review.headerRow}.
        {review.skippedCount === 0
          ? ' No se omitió ninguna fila.'
          : ` Filas omitidas (no son datos): ${formatInteger(review.skippedCount)}.`}
      </Text>
      {review.skippedRows.length > 0 && (
        <List size="sm" c="dimmed" spacing={2}>
          {review.skippedRows.map((row) => (
            <List.Item key={row.rowNumber}>{skippedSentence(row)}</List.Item>
          ))}
          {more > 0 && <List.Item>y {formatInteger(more)} más</List.Item>}
        </List>
      )}
    </Stack>
  );
}

/**
 * The heading row of a table that becomes a list of cards under 640 px: the headings stay for screen readers
 * only there (each card labels its own values).
 */
export function ColumnHeads({ labels }: { labels: readonly string[] }) {
  return (
    <thead className="border-b border-line text-start text-xs text-muted max-sm:sr-only">
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col" className="px-3 py-2 text-start font-medium">
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

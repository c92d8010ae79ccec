/** JSON shown as indented, selectable text. */

/** Props of {@link JsonView}. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

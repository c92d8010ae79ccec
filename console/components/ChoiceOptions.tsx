/**
 * The options of a select that picks one of the app's definitions (a feature, a page, a guide) by name: a first
 * empty option that asks to pick, then one per choice, its id the value. Shared by the segment form and the guide
 * editor's goal.
 */

/** Props of {@link ChoiceOptions}. */
export interface ChoiceOptionsProps {
  /** The empty option's text. */
  prompt: string;
  options: ReadonlyArray<{ id: string; name: string }>;
}

/** The empty option, then one per choice. */
export function ChoiceOptions({ prompt, options }: ChoiceOptionsProps) {
  return (
    <>
      <option value="">{prompt}</option>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </>
  );
}

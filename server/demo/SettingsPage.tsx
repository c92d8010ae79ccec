/**
 * Settings `/settings`: a form with the field kinds capture must handle, including a password input whose
 * value the agent must never collect (analytics §5).
 */
import { useState, type FormEvent } from 'react';

/** The account settings form. */
export function SettingsPage() {
  const [saved, setSaved] = useState(false);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(true);
  };

  return (
    <section className="page">
      <h1>Settings</h1>
      <form id="settings-form" className="card form" onSubmit={onSubmit} onChange={() => setSaved(false)}>
        <label htmlFor="settings-name">Full name</label>
        <input id="settings-name" name="name" type="text" autoComplete="name" defaultValue="Dana Lee" />

        <label htmlFor="settings-email">Email</label>
        <input id="settings-email" name="email" type="email" autoComplete="email" defaultValue="dana@acme.test" />

        <label htmlFor="settings-password">New password</label>
        <input id="settings-password" name="password" type="password" autoComplete="new-password" />

        <label htmlFor="settings-timezone">Time zone</label>
        <select id="settings-timezone" name="timezone" defaultValue="Europe/Paris">
          <option value="America/New_York">New York (UTC-5)</option>
          <option value="Europe/London">London (UTC+0)</option>
          <option value="Europe/Paris">Paris (UTC+1)</option>
          <option value="Asia/Tokyo">Tokyo (UTC+9)</option>
        </select>

        <label className="checkbox" htmlFor="settings-digest">
          <input id="settings-digest" name="digest" type="checkbox" defaultChecked />
          Email me a weekly digest
        </label>

        <div className="actions">
          <button type="submit" id="save-settings" className="button button-primary">
            Save changes
          </button>
          <span className="saved" role="status" id="settings-saved">
            {saved ? 'Saved' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}

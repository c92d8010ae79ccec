/**
 * Home `/`: the page the welcome guide (server/demo/guides/welcome.json) appears on.
 */
import { useState } from 'react';
import { navigate } from './navigate';

const STATS = [
  { label: 'Active users (7 days)', value: '12,480' },
  { label: 'Sessions today', value: '3,215' },
  { label: 'Median session', value: '6m 42s' },
];

/** The landing page of the host app. */
export function HomePage() {
  const [showTour, setShowTour] = useState(false);
  return (
    <section className="page">
      <div className="hero">
        <h1>See how your customers use your product</h1>
        <p className="lead">
          Acme Analytics turns clicks, page views and feature usage into reports your whole team can read. Start
          with a report on the pages your customers visit most.
        </p>
        <div className="actions">
          <button type="button" id="get-started" className="button button-primary" onClick={() => navigate('/reports')}>
            Get started
          </button>
          <button type="button" id="take-tour" className="button" onClick={() => setShowTour((v) => !v)}>
            {showTour ? 'Hide the tour' : 'Take the tour'}
          </button>
          {/* Activates the demo's feedback guide (server/demo/guides/feedback.json, launch method dom). */}
          <button type="button" id="give-feedback" className="button">
            Give feedback
          </button>
        </div>
        {showTour && (
          <ol className="tour" id="tour-steps">
            <li>Open Reports and create your first report.</li>
            <li>Pick the events and the date range you care about.</li>
            <li>Invite your team from Settings.</li>
          </ol>
        )}
      </div>
      <ul className="stats" aria-label="This week">
        {STATS.map((stat) => (
          <li key={stat.label} className="card">
            <span className="stat-value">{stat.value}</span>
            <span className="stat-label">{stat.label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Reports `/reports`: a table and the `#create-report` button the reports tooltip guide points at
 * (server/demo/guides/reports-tip.json).
 */
import { useState } from 'react';

interface Report {
  id: number;
  name: string;
  owner: string;
  updated: string;
  views: number;
  starred: boolean;
}

const INITIAL_REPORTS: Report[] = [
  { id: 1, name: 'Weekly active users', owner: 'Dana Lee', updated: '2 hours ago', views: 1240, starred: true },
  { id: 2, name: 'Checkout funnel', owner: 'Sam Ortiz', updated: 'Yesterday', views: 860, starred: false },
  { id: 3, name: 'Feature adoption: exports', owner: 'Dana Lee', updated: '3 days ago', views: 412, starred: false },
  { id: 4, name: 'Trial to paid conversion', owner: 'Priya Nair', updated: 'Last week', views: 2031, starred: true },
];

/** The reports list. */
export function ReportsPage() {
  const [reports, setReports] = useState(INITIAL_REPORTS);
  const [starredOnly, setStarredOnly] = useState(false);
  const [status, setStatus] = useState('');

  const createReport = () => {
    const id = Math.max(0, ...reports.map((r) => r.id)) + 1;
    setReports([...reports, { id, name: `Untitled report ${id}`, owner: 'You', updated: 'Just now', views: 0, starred: false }]);
    setStatus(`Created "Untitled report ${id}".`);
  };
  const toggleStar = (id: number) =>
    setReports(reports.map((r) => (r.id === id ? { ...r, starred: !r.starred } : r)));
  const shown = starredOnly ? reports.filter((r) => r.starred) : reports;

  return (
    <section className="page">
      <div className="page-header">
        <h1>Reports</h1>
        <div className="actions">
          <button type="button" id="create-report" className="button button-primary" onClick={createReport}>
            Create report
          </button>
          <button
            type="button"
            id="filter-starred"
            className="button"
            aria-pressed={starredOnly}
            onClick={() => setStarredOnly((v) => !v)}
          >
            {starredOnly ? 'Show all' : 'Starred only'}
          </button>
          <button
            type="button"
            id="export-csv"
            className="button"
            onClick={() => setStatus(`Exported ${shown.length} reports to CSV.`)}
          >
            Export CSV
          </button>
        </div>
      </div>
      <p className="status" role="status">
        {status}
      </p>
      <div className="table-wrap">
        <table className="table" id="reports-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Owner</th>
              <th scope="col">Updated</th>
              <th scope="col" className="numeric">Views</th>
              <th scope="col">
                <span className="visually-hidden">Star</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((report) => (
              <tr key={report.id}>
                <td>{report.name}</td>
                <td>{report.owner}</td>
                <td>{report.updated}</td>
                <td className="numeric">{report.views.toLocaleString('en-US')}</td>
                <td>
                  <button
                    type="button"
                    id={`star-report-${report.id}`}
                    className="icon-button"
                    aria-pressed={report.starred}
                    aria-label={report.starred ? `Unstar ${report.name}` : `Star ${report.name}`}
                    onClick={() => toggleStar(report.id)}
                  >
                    {report.starred ? '★' : '☆'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

// A designer plugin of the demo app (docs/designer.md "Plugins"): the team's ready-made steps, listed in the
// designer under "Add a step from a template". The designer imports this module and calls its default export.
export default function register(designer) {
  designer.addStepTemplate({
    name: 'Release note',
    step: {
      type: 'lightbox',
      title: "What's new this week",
      body: 'Reports now refresh on their own. Open one to see it.',
      width: 520,
      buttons: [{ label: 'Got it', action: 'dismiss' }],
    },
  });
  designer.addStepTemplate({
    name: 'Feature callout',
    step: {
      type: 'tooltip',
      title: 'New here',
      body: 'This is where you start.',
      layoutDir: 'bottom',
      buttons: [
        { label: 'Next', action: 'next' },
        { label: 'Not now', action: 'dismiss' },
      ],
    },
  });
}

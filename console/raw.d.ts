/** Vite's `?raw` imports: the file's text (the install snippet the Install page shows). */
declare module '*?raw' {
  const text: string;
  export default text;
}

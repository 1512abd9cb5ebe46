// Prettier, matched to the style the code was written in: single quotes, semicolons, trailing
// commas, `(x) =>`, and long lines (160 changes fewest of the existing lines; 120 changes 2.7× as many).
export default {
  singleQuote: true,
  printWidth: 160,
  trailingComma: 'all',
  arrowParens: 'always',
};

/** Texts of the layout area (es). */
export default {} as const;

/** Texts of the layout area (ru). */
export default {} as const;

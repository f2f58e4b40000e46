/** Texts of the layout area (en). */
export default {} as const;

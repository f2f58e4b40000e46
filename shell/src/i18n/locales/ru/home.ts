/** Texts of the home area (ru). */
export default {} as const;

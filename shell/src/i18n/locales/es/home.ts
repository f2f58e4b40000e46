/** Texts of the home area (es). */
export default {} as const;

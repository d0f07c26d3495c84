/** The suite's Next.js app: nothing but the proxy's route. */
export default { typescript: { ignoreBuildErrors: false } };

// @web/test-runner-puppeteer depends on puppeteer, whose install step would download a browser: the
// tests drive the system's Firefox through puppeteer-core, so nothing is ever downloaded.
module.exports = { skipDownload: true };

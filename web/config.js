// Deployment setting, read before the app starts. On a static host other than the API's own origin,
// name the API here (or give ?api=https://… in the page's address, which wins over this):
// window.DIXIT_API = "https://abc123.execute-api.eu-west-1.amazonaws.com/prod";

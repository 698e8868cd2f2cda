// The shipping module's door (addresses, shipping requests, the promised date, the fulfilment desk). Being built for issue 12.
export {};

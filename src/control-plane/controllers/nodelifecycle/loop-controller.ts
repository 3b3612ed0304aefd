// A BaseController that also starts a controller's periodic loops (monitorNodeHealth, the pod GC pass) when it
// is run, so whoever starts controllers through `.controller.run()` starts the whole controller.
import { BaseController, type ControllerOptions } from '../shared/controller';

export class LoopController extends BaseController {
  constructor(
    options: ControllerOptions,
    private readonly startLoops: () => void,
  ) {
    super(options);
  }

  override run(): void {
    super.run();
    this.startLoops();
  }
}

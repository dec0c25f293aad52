"""Entry point: builds the model and compiles it."""
import torch

from .model import TinyViT, accuracy, train_step


def main(steps: int = 3) -> None:
    model = TinyViT()
    compiled = torch.compile(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        images = torch.randn(8, 3, 16, 16)
        labels = torch.randint(0, 10, (8,))
        train_step(compiled, images, labels, optimizer)
        print(accuracy(compiled(images), labels))  # printing outside the compiled code: fine


if __name__ == "__main__":
    main()
